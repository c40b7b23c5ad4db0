// Assembles OpenAI-style streamed tool calls. The first delta of a call carries its `index`, `id`
// and name; later deltas carry only the index and the next piece of the arguments text, and
// parallel calls interleave by index. Compatible servers bend this: some omit `index` (one
// complete call per array slot), some reuse index 0 for every parallel call with a new id, some
// send the arguments as an object. All of those are handled here.
import type { ToolCall } from '../core/messages';
import { argumentsText } from './tool-format';
import { isRecord } from './json';

interface PendingCall {
  id: string | undefined;
  name: string;
  args: string;
}


export class ToolCallAssembler {
  private readonly byIndex = new Map<number, PendingCall>();
  private readonly order: PendingCall[] = [];

  get size(): number {
    return this.order.length;
  }

  add(deltas: unknown): void {
    if (!Array.isArray(deltas)) return;
    deltas.forEach((delta, position) => {
      if (!isRecord(delta)) return;
      const index = typeof delta.index === 'number' ? delta.index : position;
      const id = typeof delta.id === 'string' && delta.id ? delta.id : undefined;
      let call = this.byIndex.get(index);
      if (call && id && call.id && id !== call.id) call = undefined;
      if (!call) {
        call = { id, name: '', args: '' };
        this.byIndex.set(index, call);
        this.order.push(call);
      } else if (id && !call.id) {
        call.id = id;
      }
      const fn = isRecord(delta.function) ? delta.function : {};
      if (typeof fn.name === 'string' && fn.name && !call.name) call.name = fn.name;
      if (typeof fn.arguments === 'string') call.args += fn.arguments;
      else if (fn.arguments !== undefined && fn.arguments !== null) call.args = argumentsText(fn.arguments);
    });
  }

  /** The complete calls, in the order they started. Ids are invented for servers that send none
   * (llama.cpp builds, some proxies), so every result can still be paired with its call. */
  finish(): ToolCall[] {
    const calls = this.order.map((call, n) => ({
      id: call.id ?? `call_${Date.now().toString(36)}_${n}`,
      name: call.name,
      arguments: call.args || '{}',
    }));
    this.byIndex.clear();
    this.order.length = 0;
    return calls;
  }
}

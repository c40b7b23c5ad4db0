// Icons and tooltips. There is no icon library here: every non-empty id yields an empty
// `<svg class="svg-icon lucide-<id>">`, the element shape Obsidian produces, so tests can assert
// which icon was set without shipping Lucide.
import type { TooltipOptions } from 'obsidian';

function iconInfo(iconId: string): SvgElementInfo {
  return { cls: ['svg-icon', `lucide-${iconId}`], attr: { 'data-icon': iconId, viewBox: '0 0 24 24', width: 24, height: 24 } };
}

export function getIcon(iconId: string): SVGSVGElement | null {
  return iconId === '' ? null : createSvg('svg', iconInfo(iconId));
}

/** Replaces the element's content with the icon; does nothing for an unknown (empty) id. */
export function setIcon(parent: HTMLElement, iconId: string): void {
  if (iconId === '') return;
  parent.empty();
  parent.createSvg('svg', iconInfo(iconId));
}

/** Obsidian shows `aria-label` as the hover tooltip. */
export function setTooltip(el: HTMLElement, tooltip: string, options?: TooltipOptions): void {
  el.setAttr('aria-label', tooltip === '' ? null : tooltip);
  if (options?.placement) el.setAttr('data-tooltip-position', options.placement);
}

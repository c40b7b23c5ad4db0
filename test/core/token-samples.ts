// Hand-written samples, a few per category of the token kit (written for these tests; no kit or
// third-party text). Each is long enough (300+ characters) for a per-text ratio to mean something.
/** `text` padded to `width` with no-break spaces (U+00A0). */
const nbspPad = (text: string, width: number): string => text + '\u00a0'.repeat(width - text.length);

export const SAMPLES: Record<string, readonly string[]> = {
  'en-prose': [
    'The lighthouse keeper wrote in his log every evening, even when nothing had happened. He noted the wind, the colour of the water and the ships that passed too far out to be named. Years later his grandson found the books in a trunk and read them slowly, one winter, learning that a quiet life can still be a careful one, and that attention is a kind of affection.',
    'Before the committee approved the budget, several members asked why maintenance costs had doubled in two years. The engineer explained that the old pumps were failing faster than expected, and that replacing them early would be cheaper than repairing them again. Nobody enjoyed the answer, but the vote passed without further argument.',
  ],
  'en-markdown': [
    '---\ntags: [project, review]\nstatus: draft\n---\n# Weekly review\n\n## Done\n- [x] Sent the invoice to [[Clients/Acme|Acme]]\n- [x] Fixed the `sync` script (see [notes](Notes/Sync%20issues.md))\n\n## Next\n1. Draft the **roadmap** for Q3\n2. Ask about the #budget in [[Meetings/2025-03-14]]\n\n> [!tip] Remember\n> Keep each task under an hour.\n',
    '| Plugin | Version | Enabled |\n|--------|---------|---------|\n| Dataview | 0.5.67 | yes |\n| Templater | 2.9.1 | no |\n| Calendar | 1.5.10 | yes |\n\n### Setup\n\nRun `npm install` then open **Settings → Community plugins**. Links: [[Setup guide#Step 2]], ![[diagram.png]], and https://example.org/docs/setup?lang=en.\n\n---\n\n- first\n  - nested *item*\n  - another ~~old~~ item\n',
    // A table padded to aligned columns, as Obsidian's table editing plugins leave it.
    '## Reading list\n\n| Title                          | Author            | Pages | Status      |\n| ------------------------------ | ----------------- | ----: | ----------- |\n| The Left Hand of Darkness      | Ursula K. Le Guin |   304 | finished    |\n| A Memory Called Empire         | Arkady Martine    |   462 | reading     |\n| Piranesi                       | Susanna Clarke    |   272 | to read     |\n| The Dispossessed               | Ursula K. Le Guin |   387 | to read     |\n\nNotes go in [[Books/Notes]], one file per title.\n',
    // A table whose columns are padded with runs of no-break spaces, as documentation generators leave them.
    ['## Rules', '', `| ${nbspPad('Name', 48)} | ${nbspPad('Description', 44)} | ${nbspPad('Fixable', 10)} |`, '| :--- | :--- | :-: |',
      ...([['no-sync-calls', 'disallow synchronous file system calls', 'yes'], ['prefer-promises', 'prefer the promise API of fs and dns', 'no'], ['no-missing-import', 'report imports of files that do not exist', 'no'], ['no-deprecated-api', 'disallow APIs that are deprecated', 'yes']] as const).map(([a, b, c]) => `| ${nbspPad(a, 48)} | ${nbspPad(b, 44)} | ${nbspPad(c, 10)} |`), ''].join('\n'),
  ],
  zh: [
    // Traditional Chinese: more of its characters fall outside the few hundred the vocabularies keep whole.
    '我們每天都會在筆記裡記錄想法，然後把相關的內容連結起來。這個外掛會在對話變得太長之前，自動壓縮較舊的訊息，讓模型不會超出上下文視窗。設定頁面可以調整壓縮的時機與保留的訊息數量，預設值適合大多數使用者。如果你同時在電腦與手機上使用同一個儲存庫，請先在電腦上啟用同步，再於手機登入同一個帳號。遇到衝突時，外掛會保留兩個版本並在檔名後加上日期，方便你之後手動比對與合併。所有資料都只存在你自己的裝置上，除非你另外開啟雲端備份。',
    '我每天早上都会打开笔记软件，先写下昨天完成的事情，再列出今天要做的三件事。这个习惯坚持了两年，让我明白计划不需要复杂，只要清楚就好。遇到新的想法时，我会建立一个新的页面，并用双向链接把它和相关的项目连接起来。',
    '## 同步设置\n\n如果你在多台设备上使用同一个库，请先在电脑上启用同步，然后在手机上登录同一个账号。第一次同步可能需要几分钟。注意：不要同时在两台设备上修改同一篇笔记，否则可能会产生冲突文件。',
  ],
  ja: [
    '毎朝、コーヒーを飲みながらその日の予定をノートに書き出しています。終わったタスクには印をつけ、終わらなかったものは翌日に移します。この方法はとても単純ですが、忘れ物が減り、気持ちにも余裕が生まれました。',
    '## バックアップについて\n\n大切なファイルは、少なくとも二つの場所に保存してください。外付けのドライブとクラウドを組み合わせるのがおすすめです。設定画面の「自動保存」をオンにすると、五分ごとに変更が記録されます。',
  ],
  ko: [
    '저는 매일 저녁 하루 동안 배운 것을 짧게 정리합니다. 처음에는 귀찮았지만, 몇 달이 지나자 예전 기록을 다시 읽는 것이 큰 도움이 되었습니다. 특히 어려운 문제를 어떻게 해결했는지 적어 두면 비슷한 상황에서 시간을 많이 아낄 수 있습니다.',
    '## 플러그인 설치\n\n설정에서 커뮤니티 플러그인을 연 다음, 검색창에 이름을 입력하세요. 설치가 끝나면 반드시 플러그인을 활성화해야 합니다. 문제가 생기면 앱을 다시 시작해 보세요.',
  ],
  cyrillic: [
    'Каждое утро я записываю в дневник три дела, которые нужно сделать обязательно. Вечером отмечаю, что получилось, а что перенести на завтра. Такой простой способ помогает не терять важные задачи и спокойно заканчивать день.',
    'Щоранку я відкриваю нотатки й переглядаю список справ на тиждень. Якщо якесь завдання здається завеликим, я ділю його на менші кроки. Це допомагає рухатися вперед навіть тоді, коли бракує часу чи натхнення.',
  ],
  'other-scripts': [
    'Κάθε πρωί γράφω στο σημειωματάριό μου τρία πράγματα που πρέπει να κάνω. Το βράδυ ελέγχω τι ολοκληρώθηκε και μεταφέρω τα υπόλοιπα στην επόμενη μέρα.',
    'كل صباح أكتب في دفتري ثلاث مهام يجب إنجازها. وفي المساء أراجع ما أنجزته وأنقل الباقي إلى اليوم التالي. هذه الطريقة البسيطة تساعدني على التركيز.',
    'ทุกเช้าฉันจะเขียนสิ่งที่ต้องทำสามอย่างลงในสมุด ตอนเย็นฉันจะตรวจดูว่าทำอะไรเสร็จแล้วบ้าง แล้วย้ายงานที่เหลือไปวันถัดไป',
    // Persian, with the zero-width non-joiner (U+200C) inside words (دفترچه‌ام, می‌نویسم).
    'هر روز صبح سه کار مهم را در دفترچه‌ام می‌نویسم. شب‌ها بررسی می‌کنم که کدام‌ها انجام شده‌اند و بقیه را به روز بعد منتقل می‌کنم. این روش ساده به من کمک می‌کند تا آرام‌تر کار کنم و کارهای مهم را فراموش نکنم.',
  ],
  'latin-ext': [
    'Jeden Morgen schreibe ich drei Aufgaben in mein Notizbuch, die ich unbedingt erledigen möchte. Am Abend prüfe ich, was geklappt hat, und verschiebe den Rest auf den nächsten Tag. Diese einfache Gewohnheit hilft mir, ruhiger und konzentrierter zu arbeiten.',
    'Każdego ranka zapisuję w notesie trzy najważniejsze zadania. Wieczorem sprawdzam, co udało się zrobić, a resztę przenoszę na następny dzień. Dzięki temu łatwiej mi się skupić i nie zapominam o ważnych sprawach.',
    'Chaque matin, j’écris dans mon carnet les trois tâches que je dois absolument terminer. Le soir, je vérifie ce qui a été fait et je reporte le reste au lendemain. Cette habitude très simple m’aide à rester concentré.',
    // French typography: a no-break space inside « » and before : ; ? ! (escaped so that it stays visible here).
    'Attention\u00a0: la synchronisation «\u00a0automatique\u00a0» ne démarre qu’après la première connexion. Pourquoi\u00a0? Parce que le coffre doit d’abord être chiffré sur votre appareil. Ensuite, chaque modification est envoyée en quelques secondes\u00a0; en cas de conflit, les deux versions sont conservées et vous choisissez laquelle garder\u00a0!',
  ],
  'code-ts': [
    "export interface Budget {\n  limit: number;\n  used: number;\n}\n\nexport function remaining(budget: Budget): number {\n  return Math.max(0, budget.limit - budget.used);\n}\n\nexport class Queue<T> {\n  private readonly items: T[] = [];\n  push(item: T): void {\n    this.items.push(item);\n  }\n  shift(): T | undefined {\n    return this.items.shift();\n  }\n  get size(): number {\n    return this.items.length;\n  }\n}\n",
    "const handlers = new Map<string, (event: CustomEvent) => void>();\n\nfunction on(name: string, handler: (event: CustomEvent) => void): () => void {\n  handlers.set(name, handler);\n  return () => handlers.delete(name);\n}\n\nasync function loadNotes(paths: readonly string[]): Promise<string[]> {\n  const texts = await Promise.all(paths.map((p) => readFile(p, 'utf8')));\n  return texts.filter((t) => t.trim().length > 0);\n}\n",
  ],
  'code-py': [
    'import json\nfrom pathlib import Path\n\n\nclass NoteIndex:\n    """Keeps the titles of every note under a folder."""\n\n    def __init__(self, root: Path) -> None:\n        self.root = root\n        self.titles: dict[str, str] = {}\n\n    def scan(self) -> int:\n        for path in self.root.rglob("*.md"):\n            first = path.read_text(encoding="utf-8").splitlines()[:1]\n            self.titles[str(path)] = first[0].lstrip("# ") if first else path.stem\n        return len(self.titles)\n\n    def save(self, out: Path) -> None:\n        out.write_text(json.dumps(self.titles, indent=2))\n',
    'def chunk(items, size=10):\n    """Yield lists of at most `size` items."""\n    batch = []\n    for item in items:\n        batch.append(item)\n        if len(batch) == size:\n            yield batch\n            batch = []\n    if batch:\n        yield batch\n\n\nif __name__ == "__main__":\n    for part in chunk(range(25), size=7):\n        print(f"{len(part):>3} items: {part[0]}..{part[-1]}")\n',
  ],
  json: [
    JSON.stringify({ id: 'evt_20250314_0931', type: 'note.updated', created: 1741944660, data: { path: 'Projects/Garden plan.md', size: 4821, tags: ['garden', 'spring'], links: 12, author: { name: 'Sam', role: 'editor' } }, retries: 0, ok: true }, null, 2),
    JSON.stringify([{ name: 'search_notes', description: 'Search the vault for notes matching a query', parameters: { type: 'object', properties: { query: { type: 'string', description: 'Words to look for' }, limit: { type: 'integer', minimum: 1, maximum: 50 } }, required: ['query'] } }]),
  ],
  'chat-mixed': [
    'Sure! Here is a small function that counts the words in a string:\n\n```js\nfunction countWords(text) {\n  return text.trim().split(/\\s+/).filter(Boolean).length;\n}\n```\n\nIt trims the text first, so leading spaces do not create an empty word. If you need to ignore punctuation, replace the split pattern with `/[^\\p{L}\\p{N}]+/u`.\n\nLet me know if you want a version that handles CJK text too.',
    'The error happens because `fetch` returns a promise, and you are reading `.json` before it resolves. Try this:\n\n```ts\nconst res = await fetch(url);\nif (!res.ok) throw new Error(`HTTP ${res.status}`);\nconst data = await res.json();\n```\n\n**Why it works:** `await` pauses until the response arrives, and checking `res.ok` turns a 404 into a clear error instead of a confusing parse failure.',
  ],
  emoji: [
    '🎉 Release day! 🚀\n\n- ✅ Tests pass on every platform\n- 🐛 Fixed the crash when a note is empty\n- ⚡ Startup is 30% faster\n- 📝 New docs for the settings page\n\nThanks to everyone who helped 🙏❤️ See you next month 👋😊',
    '- [ ] Water the plants 🌱 📅 2025-04-02 🔁 every week\n- [x] Call the dentist ☎️ ✅ 2025-03-28\n- [ ] Book the train 🚆 ⏳ 2025-04-10 🔺\n- [ ] Plan the trip 🗺️ 👨‍👩‍👧 📅 2025-05-01\n- [ ] Bake a cake 🎂🍰 for Mia 🎈\n',
  ],
};

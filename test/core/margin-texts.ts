// Generated texts of every kind the token estimator is measured on, for the block margin's property
// test: sentences of real words (English, accented Latin, other scripts, CJK), with emoji, code,
// Markdown tables padded with spaces, URLs and paths. Word lists written for this test.
import fc from 'fast-check';

const split = (s: string): string[] => s.split(' ');

const EN = split(
  'the a we they booked cabin lake second week of August and then my sister asked whether train station would open early because weather was bad last year so everyone waited outside for hours meeting notes budget approved engineer explained pumps failing faster than expected replacing them cheaper repairing again nobody enjoyed answer vote passed without argument I think should probably call tomorrow morning about invoice delivery package garden tomatoes recipe needs more garlic',
);
// Natural sentences per language (a line is one to three of them): the estimator prices words and
// their neighbours, so word salad from a short list would weigh a few words' errors, not a language's.
const LATIN: Record<string, string[]> = {
  de: ['Wir haben die Hütte am See für die zweite Augustwoche gebucht.', 'Die Größe passt für vier Personen, aber die Küche ist ziemlich klein.', 'Könntest du bitte prüfen, ob der Zug morgen früh pünktlich fährt?', 'Nach der Besprechung wurde das Budget für die Überarbeitung genehmigt.', 'Übrigens hat meine Schwester gefragt, ob wir die Fahrräder mitnehmen.'],
  fr: ['Nous avons réservé le chalet près du lac pour la deuxième semaine d’août.', 'Il faudra vérifier si le train part à l’heure demain matin.', 'Après la réunion, le budget de la rénovation a été approuvé sans débat.', 'Ma sœur m’a demandé si nous emportions les vélos cette année.', 'Le médecin a répondu que les résultats étaient très encourageants.'],
  es: ['Reservamos la cabaña junto al lago para la segunda semana de agosto.', '¿Podrías comprobar si el tren sale puntual mañana por la mañana?', 'Después de la reunión se aprobó el presupuesto de la reforma.', 'Mi hermana preguntó si llevaríamos las bicicletas este año.', 'La información que me enviaste ayer ya está en la carpeta compartida.'],
  it: ['Abbiamo prenotato la baita vicino al lago per la seconda settimana di agosto.', 'Potresti controllare se il treno di domani mattina parte in orario?', 'Dopo la riunione il bilancio per la ristrutturazione è stato approvato.', 'Mia sorella ha chiesto se porteremo le biciclette anche quest’anno.', 'Le funzioni principali della libreria sono descritte nella documentazione.'],
  pt: ['Reservamos a cabana perto do lago para a segunda semana de agosto.', 'Você poderia verificar se o trem de amanhã sai no horário?', 'Depois da reunião, o orçamento da reforma foi aprovado sem discussão.', 'Minha irmã perguntou se não levaríamos as bicicletas este ano.', 'A função principal da aplicação ainda não está documentada.'],
  pl: ['Zarezerwowaliśmy domek nad jeziorem na drugi tydzień sierpnia.', 'Czy możesz sprawdzić, czy jutrzejszy pociąg odjeżdża punktualnie?', 'Po spotkaniu budżet na remont został zatwierdzony bez dyskusji.', 'Moja siostra zapytała, czy w tym roku weźmiemy rowery.'],
  cs: ['Rezervovali jsme chatu u jezera na druhý týden v srpnu.', 'Mohl bys zkontrolovat, jestli zítřejší vlak odjíždí včas?', 'Po schůzce byl rozpočet na rekonstrukci schválen bez diskuse.', 'Moje sestra se ptala, jestli letos vezmeme kola.'],
  tr: ['Göl kenarındaki kulübeyi ağustosun ikinci haftası için ayırttık.', 'Yarın sabahki trenin zamanında kalkıp kalkmadığını kontrol edebilir misin?', 'Toplantıdan sonra tadilat bütçesi tartışmasız onaylandı.', 'Kız kardeşim bu yıl bisikletleri götürüp götürmeyeceğimizi sordu.'],
  vi: ['Chúng tôi đã đặt căn nhà gỗ gần hồ cho tuần thứ hai của tháng tám.', 'Bạn có thể kiểm tra xem chuyến tàu sáng mai có chạy đúng giờ không?', 'Sau cuộc họp, ngân sách sửa chữa đã được phê duyệt.', 'Em gái tôi hỏi năm nay chúng tôi có mang xe đạp theo không.'],
};
const SCRIPTS: Record<string, string[]> = {
  ru: ['Мы забронировали домик у озера на вторую неделю августа.', 'Можешь проверить, отправляется ли завтрашний поезд вовремя?', 'После совещания бюджет на ремонт утвердили без обсуждения.', 'Сестра спросила, возьмём ли мы в этом году велосипеды.'],
  uk: ['Ми забронювали будиночок біля озера на другий тиждень серпня.', 'Чи можеш перевірити, чи завтрашній потяг відправляється вчасно?', 'Після наради бюджет на ремонт затвердили без обговорення.', 'Сестра запитала, чи візьмемо ми цього року велосипеди.'],
  el: ['Κλείσαμε το σπιτάκι δίπλα στη λίμνη για τη δεύτερη εβδομάδα του Αυγούστου.', 'Μπορείς να ελέγξεις αν το αυριανό τρένο φεύγει στην ώρα του;', 'Μετά τη σύσκεψη ο προϋπολογισμός της ανακαίνισης εγκρίθηκε χωρίς συζήτηση.', 'Η αδερφή μου ρώτησε αν θα πάρουμε φέτος τα ποδήλατα.'],
  ar: ['حجزنا الكوخ بجانب البحيرة للأسبوع الثاني من أغسطس.', 'هل يمكنك التحقق مما إذا كان قطار الغد سيغادر في موعده؟', 'بعد الاجتماع تمت الموافقة على ميزانية التجديد دون نقاش.', 'سألت أختي إن كنا سنأخذ الدراجات هذا العام.'],
  he: ['הזמנו את הבקתה ליד האגם לשבוע השני של אוגוסט.', 'תוכל לבדוק אם הרכבת של מחר בבוקר יוצאת בזמן?', 'אחרי הישיבה אושר תקציב השיפוץ בלי ויכוח.', 'אחותי שאלה אם ניקח השנה את האופניים.'],
  hi: ['हमने अगस्त के दूसरे सप्ताह के लिए झील के पास केबिन बुक किया।', 'क्या तुम देख सकते हो कि कल सुबह की ट्रेन समय पर चलेगी?', 'बैठक के बाद मरम्मत का बजट बिना बहस के मंज़ूर हो गया।', 'मेरी बहन ने पूछा कि क्या हम इस साल साइकिलें ले जाएँगे।'],
  th: ['เราจองบ้านพักริมทะเลสาบไว้สำหรับสัปดาห์ที่สองของเดือนสิงหาคม', 'ช่วยตรวจดูหน่อยได้ไหมว่ารถไฟพรุ่งนี้เช้าออกตรงเวลาหรือเปล่า', 'หลังการประชุม งบประมาณปรับปรุงได้รับอนุมัติโดยไม่มีการถกเถียง'],
  ka: ['ჩვენ დავჯავშნეთ სახლი ტბასთან აგვისტოს მეორე კვირისთვის.', 'შეგიძლია შეამოწმო, ხვალინდელი მატარებელი დროულად გადის თუ არა?'],
};
const CJK: Record<string, string[]> = {
  zh: ['我们预订了湖边的小屋，时间是八月的第二周。', '你能查一下明天早上的火车是否准时出发吗？', '会议结束后，装修预算没有争议就通过了。', '我妹妹问今年我们要不要带自行车。', '這個設定會在對話變得太長之前自動壓縮舊的訊息。'],
  ja: ['八月の第二週に湖のそばの小屋を予約しました。', '明日の朝の電車が時間通りに出発するか確認してもらえますか？', '会議のあと、改装の予算は議論なしで承認されました。', '妹が今年は自転車を持っていくのかと聞いてきました。'],
  ko: ['우리는 팔월 둘째 주에 호숫가 오두막을 예약했습니다.', '내일 아침 기차가 제시간에 출발하는지 확인해 줄 수 있어요?', '회의가 끝난 뒤 리모델링 예산이 논의 없이 승인되었습니다.', '여동생이 올해 자전거를 가져갈 건지 물었습니다.'],
};
const EMOJI = split('🙂 😂 🎉 ❤️ 👍🏽 🧙‍♂️ 👨‍👩‍👧 🇫🇷 ✅ ⏳ ☕ ❄️ ✨ 🚀 🔥 🐛 📦 🏔️');
const IDENT = split('user userId fetchData config maxTokens retry_count handleClick items result response parseJSON tokenize BlockDraft render_block __init__ self ctx options value index error');
const PUNCT = split('( ) { } [ ] ; , . => = === !== && || : :: -> + - * / < > <= >= !');
const PATH_PARTS = split('src core render tokens block-margin.ts notes Daily 2025-03-14.md Projects Acme README.md node_modules gpt-tokenizer dist index.js users docs api v2 search');

/** `n` to `m` picks from `words`, joined by `sep`. */
const run = (words: readonly string[], n: number, m: number, sep = ' '): fc.Arbitrary<string> => fc.array(fc.constantFrom(...words), { minLength: n, maxLength: m }).map((w) => w.join(sep));
/** An English sentence of words drawn at random (English words are priced well one by one). */
const english = run(EN, 4, 28).map((s) => s.charAt(0).toUpperCase() + s.slice(1) + '.');
/** One to three of a language's sentences. */
const said = (sentences: readonly string[]): fc.Arbitrary<string> => fc.array(fc.constantFrom(...sentences), { minLength: 1, maxLength: 3 }).map((s) => s.join(' '));
const oneOfLang = (langs: Record<string, string[]>): fc.Arbitrary<string> => fc.oneof(...Object.values(langs).map(said));

const accented = oneOfLang(LATIN);
const scripts = oneOfLang(SCRIPTS);
const cjk = oneOfLang(CJK);
const emoji = fc.array(fc.oneof({ arbitrary: fc.constantFrom(...EN), weight: 3 }, { arbitrary: fc.constantFrom(...EMOJI), weight: 1 }), { minLength: 3, maxLength: 24 }).map((w) => w.join(' '));
const code = fc
  .array(fc.oneof(fc.constantFrom(...IDENT), fc.constantFrom(...PUNCT), fc.noBias(fc.integer({ min: 0, max: 99999 })).map(String), fc.constantFrom('"utf-8"', "'max_tokens'", '`${id}`', '// TODO')), { minLength: 4, maxLength: 40 })
  .map((w) => w.join(' '));
const url = fc.oneof(
  fc.tuple(run(PATH_PARTS, 1, 5, '/'), fc.noBias(fc.integer({ min: 0, max: 0xffffff }))).map(([p, n]) => `https://example.org/${p}?id=${n.toString(16)}&lang=en`),
  run(PATH_PARTS, 2, 7, '/').map((p) => `/home/ana/${p}`),
  fc.noBias(fc.uuid()),
);
/** A Markdown table's row padded to aligned columns with spaces (and sometimes no-break spaces). */
const table = fc
  .tuple(fc.array(fc.tuple(run(EN, 1, 4), fc.integer({ min: 0, max: 40 })), { minLength: 2, maxLength: 6 }), fc.boolean())
  .map(([cells, nbsp]) => `| ${cells.map(([t, pad]) => t + (nbsp ? '\u00a0' : ' ').repeat(pad)).join(' | ')} |`);
const separator = fc.array(fc.integer({ min: 3, max: 40 }), { minLength: 2, maxLength: 6 }).map((w) => `| ${w.map((n) => '-'.repeat(n)).join(' | ')} |`);

/** The kinds of text, each a generator of one line. */
export const KINDS: Record<string, fc.Arbitrary<string>> = {
  english,
  accented,
  scripts,
  cjk,
  emoji,
  code,
  url,
  table: fc.oneof({ arbitrary: table, weight: 4 }, { arbitrary: separator, weight: 1 }),
  // English with a few of the others in it (a name, a path, an emoji): how most chats read.
  mixed: fc.array(fc.oneof({ arbitrary: english, weight: 4 }, accented, url, emoji, code), { minLength: 1, maxLength: 3 }).map((s) => s.join(' ')),
};

/** A conversation's lines: one to three kinds, lines drawn from them at random. */
export const lines = fc
  .uniqueArray(fc.constantFrom(...Object.keys(KINDS)), { minLength: 1, maxLength: 3 })
  .chain((kinds) => fc.array(fc.oneof(...kinds.map((k) => KINDS[k] as fc.Arbitrary<string>)), { minLength: 1, maxLength: 120 }));

/** Each language's lines apart (for measuring the kinds' bounds). */
export const LANGS: Record<string, fc.Arbitrary<string>> = Object.fromEntries(Object.entries({ ...LATIN, ...SCRIPTS, ...CJK }).map(([k, v]) => [k, said(v)]));

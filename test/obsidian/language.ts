// The app's interface language. Obsidian reports the ISO code the user chose ('en' by default);
// this runtime reports 'en' unless a test picks another with testing.ts's setLanguage.
let language = 'en';

/** The ISO code of the app language (obsidian.d.ts: "Defaults to 'en'", since 1.8.7). */
export function getLanguage(): string {
  return language;
}

/** Test support (not Obsidian API): the language getLanguage reports; '' resets it to 'en'. */
export function setAppLanguage(code: string): void {
  language = code || 'en';
}

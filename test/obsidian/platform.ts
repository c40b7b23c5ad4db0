// Obsidian's Platform flags. Defaults describe the desktop app on Linux; tests switch them with
// testing.setPlatform (the object is shared, like Obsidian's, so plugin code sees the change).

const DESKTOP_LINUX = {
  isDesktop: true,
  isMobile: false,
  isDesktopApp: true,
  isMobileApp: false,
  isIosApp: false,
  isAndroidApp: false,
  isPhone: false,
  isTablet: false,
  isMacOS: false,
  isWin: false,
  isLinux: true,
  isSafari: false,
  resourcePathPrefix: 'app://obsidian/',
};

export type PlatformFlags = typeof DESKTOP_LINUX;

export const Platform: PlatformFlags = { ...DESKTOP_LINUX };

/** Back to the desktop defaults, then the given overrides. */
export function resetPlatform(overrides: Partial<PlatformFlags> = {}): void {
  Object.assign(Platform, DESKTOP_LINUX, overrides);
}

/** Whether the vault's disk ignores case by default: APFS (macOS, iOS) and NTFS (Windows) do, ext4
 * (Linux) does not. Obsidian's `DataAdapter.exists(path, sensitive?)` is case-insensitive unless
 * `sensitive` is passed (obsidian.d.ts, `DataAdapter.exists`: "sensitive: Some file systems/operating
 * systems are case-insensitive, set to true to force a case-sensitivity check"). */
export function hasCaseInsensitiveDisk(): boolean {
  return Platform.isMacOS || Platform.isWin || Platform.isIosApp;
}

// The reader's colour scheme (prefers-color-scheme) as one of the lab's themes: what the full
// page (web/page.mjs) and an embed (web/embed.mjs) show until a theme is chosen. A frame cannot
// read its host's colours, but the browser's scheme is the host's when the host follows it too.
//
//   schemeTheme()          'light' or 'dark', the scheme's now
//   onSchemeChange(fn)     fn(theme) whenever the reader's scheme changes
//   showTheme(name)        the page's own chrome in that theme (style.css, embed.css: data-theme),
//                          and the browser's bars (index.html's theme-color)

const lightQuery = globalThis.matchMedia?.('(prefers-color-scheme: light)') ?? null;

export function schemeTheme() {
  return lightQuery?.matches ? 'light' : 'dark';
}

export function onSchemeChange(fn) {
  lightQuery?.addEventListener('change', () => fn(schemeTheme()));
}

export function showTheme(name) {
  const root = document.documentElement;
  if (root.dataset.theme === name) return;
  root.dataset.theme = name;
  // The browser's own bars in the toolbar's colour of that theme (the full page's theme-color).
  const bar = getComputedStyle(root).getPropertyValue('--bar').trim();
  if (bar) for (const meta of document.querySelectorAll('meta[name="theme-color"]')) meta.content = bar;
}

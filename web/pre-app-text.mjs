// The page's words before the app, and with it the string table (src/ui/strings.h), have
// loaded: the loading line and the two reasons the lab cannot start. They are copies of the
// table's web_loading, web_no_wasm and web_no_webgl2 (tests/node/pre_app_text.test.mjs checks
// each against the table), in the language the page will open in: ?lang=, else the link's
// language, else the browser's.
export const PRE_APP_TEXT = {
  en: {
    web_loading: 'Loading Attention Lab…',
    web_no_wasm: 'This browser has no WebAssembly, which Attention Lab needs.',
    web_no_webgl2: 'WebGL2 is not available in this browser (or it is switched off), and Attention Lab draws with it.',
  },
  zh: {
    web_loading: '正在载入注意力实验室…',
    web_no_wasm: '这个浏览器不支持 WebAssembly，注意力实验室需要它。',
    web_no_webgl2: '这个浏览器没有 WebGL2（或者它被关闭了），注意力实验室要用它来绘图。',
  },
};

export function preAppLanguage(search, hash, browserLanguage) {
  const asked = new URLSearchParams(search).get('lang');
  if (asked === 'zh' || asked === 'en') return asked;
  const linked = /(?:^#|&)language=(zh|en)(?:&|$)/.exec(hash);
  if (linked) return linked[1];
  return String(browserLanguage).toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

export function preAppText(name, { search = '', hash = '', language = 'en' } = {}) {
  return PRE_APP_TEXT[preAppLanguage(search, hash, language)][name];
}

// The page's words before the app, and with it the string table (src/ui/strings.h), have
// loaded, or after the app has stopped: the loading line, the two reasons the lab cannot start,
// and the crash screen's words (web/crash.mjs). They are copies of the table's entries of the
// same names (tests/node/pre_app_text.test.mjs checks each against the table), in the language
// the page will open in: ?lang=, else the link's language, else the browser's.
export const PRE_APP_TEXT = {
  en: {
    web_loading: 'Loading Attention Lab…',
    web_no_wasm: 'This browser has no WebAssembly, which Attention Lab needs.',
    web_no_webgl2: 'WebGL2 is not available in this browser (or it is switched off), and Attention Lab draws with it.',
    web_crash_title: 'Attention Lab has stopped',
    web_crash_body: 'It hit an error it cannot recover from (a bug, or too little memory). If a link or the saved session caused it, open the lab without the link, or start fresh.',
    web_crash_open: 'Open the lab without this link',
    web_crash_open_title: 'The same page without the link\'s settings; the session saved in this browser is kept',
    web_crash_reload: 'Reload',
    web_crash_fresh: 'Start fresh',
    web_crash_fresh_title: 'Clears what this browser saved of the lab (the session and the training run), then opens it without the link',
    web_crash_report: 'Error details, for a bug report:',
  },
  zh: {
    web_loading: '正在载入注意力实验室…',
    web_no_wasm: '这个浏览器不支持 WebAssembly，注意力实验室需要它。',
    web_no_webgl2: '这个浏览器没有 WebGL2（或者它被关闭了），注意力实验室要用它来绘图。',
    web_crash_title: '注意力实验室已停止运行',
    web_crash_body: '实验室遇到了无法恢复的错误（程序缺陷或内存不足）。如果是链接或保存的会话引起的，可以不带链接打开，或者重新开始。',
    web_crash_open: '不带链接打开实验室',
    web_crash_open_title: '同一页面，但不带链接里的设置；这个浏览器里保存的会话会保留',
    web_crash_reload: '重新加载',
    web_crash_fresh: '重新开始',
    web_crash_fresh_title: '清除这个浏览器为实验室保存的内容（会话和训练进度），然后不带链接打开',
    web_crash_report: '错误详情（报告问题时请附上）：',
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

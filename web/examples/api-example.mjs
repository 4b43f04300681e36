// The example of README "The JavaScript API": a lab inside this page, driven from script.
import { createLab } from '../api.mjs';

const log = document.getElementById('cursor-log');
const lab = await createLab(document.getElementById('figure'), {
  state: { sentence: 'the cat sat on the mat', panel: 'token', cursor: 1 },
  tabs: false,
});
lab.on('cursor', ({ cursor, token }) => {
  log.textContent = cursor < 0 ? 'no query selected' : `cursor moved: query '${token}' at position ${cursor}`;
});
window.lab = lab;  // for the console (and the tests)

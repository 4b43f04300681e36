// A scoreboard for a page of exercise figures (README, "Exercises"): the pattern a teacher
// copies into a course or LMS page. Each iframe.exercise names its exercise in data-exercise;
// this script points it at the lab's embed with ?exercise=N and origins= this page's origin,
// so every answer in it posts {attnlab: 1, type: 'event', event: 'answer', exercise, correct,
// attempts} here; the table counts them. Nothing leaves the page: a gradebook would send the
// same counts where the course keeps them.
const board = document.getElementById('scoreboard');
const summary = document.getElementById('score-summary');
const labels = JSON.parse(document.getElementById('scoreboard-text').textContent);
const lab = new URL('../embed.html', import.meta.url);
const rows = new Map();  // exercise -> {row, attempts, right, first}

for (const frame of document.querySelectorAll('iframe.exercise')) {
  const id = Number(frame.dataset.exercise);
  const src = new URL(lab);
  src.search = `?controls=0&exercise=${id}&origins=${encodeURIComponent(location.origin)}`;
  if (document.documentElement.lang.startsWith('zh')) src.hash = '#v=4&language=zh';  // the page's language
  frame.src = src.href;
  const row = board.insertRow();
  row.dataset.exercise = String(id);
  for (const text of [frame.title, '0', '–', '–']) row.insertCell().textContent = text;
  rows.set(id, { row, attempts: 0, right: false, first: null });
}

function show() {
  let answered = 0, right = 0, first = 0;
  for (const r of rows.values()) {
    r.row.cells[1].textContent = String(r.attempts);
    r.row.cells[2].textContent = r.attempts ? (r.right ? labels.yes : labels.notYet) : '–';
    r.row.cells[3].textContent = r.first === null ? '–' : r.first ? labels.yes : labels.no;
    if (r.attempts) answered++;
    if (r.right) right++;
    if (r.first) first++;
  }
  summary.textContent = labels.summary.replace('{answered}', answered).replace('{total}', rows.size)
    .replace('{right}', right).replace('{first}', first);
}

addEventListener('message', (event) => {
  const d = event.data;
  if (!d || d.attnlab !== 1 || d.type !== 'event') return;
  // Only our figures: the frame that sent it must be one of this page's exercise iframes.
  const frame = [...document.querySelectorAll('iframe.exercise')].find((f) => f.contentWindow === event.source);
  if (!frame) return;
  if (d.event === 'height') frame.style.height = `${Math.max(320, Math.min(900, d.height))}px`;
  if (d.event !== 'answer' || Number(frame.dataset.exercise) !== d.exercise) return;
  const r = rows.get(d.exercise);
  r.attempts = d.attempts;
  if (r.first === null) r.first = d.correct;
  r.right = r.right || d.correct;
  show();
});
show();

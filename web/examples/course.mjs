// Auto-height for the figures of a course page: each embed posts its preferred height
// (README, "Embedding"); the iframe that sent it is resized to that height.
addEventListener('message', (event) => {
  const d = event.data;
  if (!d || d.attnlab !== 1 || d.type !== 'event' || d.event !== 'height') return;
  for (const frame of document.querySelectorAll('iframe.figure')) {
    if (frame.contentWindow === event.source) frame.style.height = `${Math.max(240, Math.min(900, d.height))}px`;
  }
});

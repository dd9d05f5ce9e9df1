// check_explorers.py: the texts of the i-th explorer's SVG charts that overlap on screen (a
// y-axis label running into the tick labels, as chapter 8's "kappa, MCC" did), each pair once.
(i) => {
  const root = document.querySelectorAll('.kh-explorer')[i];
  if (!root) return [];
  const out = [];
  for (const svg of root.querySelectorAll('svg.kh-chart')) {
    const boxes = [...svg.querySelectorAll('text')]
      .map(t => ({text: t.textContent, r: t.getBoundingClientRect()}))
      .filter(b => b.text.trim() && b.r.width > 0 && b.r.height > 0);
    for (let a = 0; a < boxes.length; a++) {
      for (let b = a + 1; b < boxes.length; b++) {
        const p = boxes[a].r, q = boxes[b].r;
        const dx = Math.min(p.right, q.right) - Math.max(p.left, q.left);
        const dy = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
        if (dx > 0.5 && dy > 0.5) {
          out.push(`in the chart "${svg.getAttribute('aria-label').slice(0, 50)}", ` +
                   `"${boxes[a].text}" overlaps "${boxes[b].text}" ` +
                   `(${dx.toFixed(1)} x ${dy.toFixed(1)} px)`);
        }
      }
    }
  }
  return out.slice(0, 5);
}

// check_site.py, the phone pass: what is cut off or reaches past the screen (see PHONE_PROBE).
() => {
  const article = document.querySelector('article.bd-article') ||
                  document.querySelector('article') || document.body;
  const vw = document.documentElement.clientWidth;
  const kinds = [
    // A formula's extent is its mjx-math, not its mjx-container: the container's scroll
    // width counts MathJax's hidden MathML copy, and a display container is a full-width
    // block whatever the formula's width.
    ['math', 'mjx-container > mjx-math'],
    ['image', 'img'],
    ['table', 'table'],
    ['widget', '.widget-subarea .lm-Widget'],
    // The live explorers' controls, numbers and charts (a control must fit, not scroll).
    ['explorer', '.kh-explorer-live :is(.kh-control, select, input, dl, svg)'],
    ['code', 'pre'],
  ];
  const scrolls = v => v === 'auto' || v === 'scroll';
  const hides = v => v === 'hidden' || v === 'clip';
  const describe = node => {
    const el = node.tagName === 'MJX-MATH' ? node.parentElement : node;
    let s = el.tagName.toLowerCase();
    if (el.id) s += '#' + el.id;
    const cls = [...el.classList].slice(0, 3);
    if (cls.length) s += '.' + cls.join('.');
    return s;
  };
  const where = node => {
    const el = node.tagName === 'MJX-MATH' ? node.parentElement.parentElement : node;
    const sec = el.closest('section[id]');
    const text = (el.textContent || el.getAttribute('alt') || '').replace(/\s+/g, ' ').trim();
    return (sec ? '#' + sec.id + ' ' : '') + JSON.stringify(text.slice(0, 40));
  };
  const problems = [];
  let checked = 0;
  for (const [kind, selector] of kinds) {
    for (const el of article.querySelectorAll(selector)) {
      const rect = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      if (rect.width === 0 || rect.height === 0 || cs.visibility === 'hidden') continue;
      checked += 1;
      // The element's own extent: its box if it scrolls, else its box or its content.
      const own = kind !== 'math';
      let right = scrolls(cs.overflowX) || !own ? rect.right
                                                : Math.max(rect.right, rect.left + el.scrollWidth);
      if (own && hides(cs.overflowX) && el.scrollWidth > el.clientWidth + 1) {
        problems.push(`${kind} ${describe(el)} ${where(el)} is cut off by its own overflow: ` +
                      `${el.scrollWidth} px of content in ${el.clientWidth} px`);
        continue;
      }
      let cut = null, scroller = null;
      for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
        const acs = getComputedStyle(a);
        const ox = acs.overflowX;
        // overflow does not apply to inline boxes
        if (ox === 'visible' || acs.display === 'inline' || acs.display === 'contents') continue;
        const ar = a.getBoundingClientRect();
        // ipywidgets' boxes scroll by default, which would hide a control behind a
        // sideways scroll inside the widget: for a widget, only a scroll box outside it
        // counts.
        const inWidget = (kind === 'widget' && a.closest('.widget-subarea')) ||
                         (kind === 'explorer' && a.closest('.kh-explorer-live'));
        if (scrolls(ox) && article.contains(a) && a !== article && !inWidget) {
          scroller = scroller || a;
          right = ar.right;  // the content is reachable by scrolling a; a's own box counts
          continue;
        }
        const edge = ar.left + a.clientLeft + a.clientWidth;
        if (hides(ox) && right > edge + 1) { cut = [a, edge]; break; }
      }
      if (cut) {
        problems.push(`${kind} ${describe(el)} ${where(el)} reaches ${Math.round(right)} px, ` +
                      `past the right edge (${Math.round(cut[1])} px) of ` +
                      `${describe(cut[0])}, which hides overflow: cut off`);
      } else if (right > vw + 1) {
        problems.push(`${kind} ${describe(el)} ${where(el)} reaches ${Math.round(right)} px, ` +
                      `past the ${vw} px viewport, with no scrolling box of its own`);
      }
    }
  }
  const sideways = [];
  const frames = [document.scrollingElement,
                  ...document.querySelectorAll('.bd-main, .bd-content, .bd-article-container')];
  for (const f of frames) {
    if (f && f.scrollWidth > f.clientWidth + 1)
      sideways.push(`${f === document.scrollingElement ? 'the page' : describe(f)} scrolls ` +
                    `sideways: ${f.scrollWidth} px wide in ${f.clientWidth} px`);
  }
  return {checked, problems, sideways, vw};
}

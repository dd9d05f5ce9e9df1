// check_site.py, the phone pass: every figure image of the article as the phone shows it. For
// each: its file, its drawn and natural widths (the text's scale is drawn / natural), and
// whether part of it is out of sight in a sideways-scrolling box, with or without a visible
// cue saying so (.kh-figure-cue, tools/explorers_build.py).
() => {
  const article = document.querySelector('article.bd-article') ||
                  document.querySelector('article') || document.body;
  const out = [];
  for (const img of article.querySelectorAll('img')) {
    const rect = img.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0 || !img.naturalWidth) continue;
    if (getComputedStyle(img).visibility === 'hidden') continue;
    let box = null;
    for (let a = img.parentElement; a && article.contains(a) && a !== article; a = a.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      if ((ox === 'auto' || ox === 'scroll') && a.scrollWidth > a.clientWidth + 1) { box = a; break; }
    }
    const holder = img.closest('figure, .cell_output, p, div') || img.parentElement;
    const cue = holder && [...holder.querySelectorAll('.kh-figure-cue')].find(c => {
      const r = c.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(c).visibility !== 'hidden';
    });
    out.push({
      src: img.getAttribute('src'),
      alt: (img.getAttribute('alt') || '').slice(0, 60),
      drawn: rect.width,
      natural: img.naturalWidth,
      hidden: box ? box.scrollWidth - box.clientWidth : 0,
      cue: cue ? cue.textContent.trim() : null,
    });
  }
  return out;
}

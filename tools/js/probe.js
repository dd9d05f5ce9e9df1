// check_site.py: what a loaded page holds (formulas, images, widgets, buttons, links).
() => {
  const out = {};
  const math = [...document.querySelectorAll('.math')];
  out.math = math.length;
  out.mathUntypeset = math.filter(el => !el.querySelector('mjx-container')).length;
  out.mjx = document.querySelectorAll('mjx-container').length;
  out.mathErrors = [...document.querySelectorAll('mjx-merror')].map(e => e.textContent).slice(0, 5);
  // Raw TeX left in the prose: text nodes outside code, scripts and MathJax output.
  const walker = document.createTreeWalker(document.querySelector('article') || document.body,
                                           NodeFilter.SHOW_TEXT);
  const raw = [];
  const rawTex = /\\\(|\\\)|\\\[|\\\]|\$\$|\\begin\{/;
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (node.parentElement.closest('pre, code, script, style, mjx-container, .highlight, textarea'))
      continue;
    if (rawTex.test(node.textContent)) raw.push(node.textContent.trim().slice(0, 80));
  }
  out.rawTex = raw.slice(0, 5);
  const article = document.querySelector('article') || document.body;
  out.images = [...article.querySelectorAll('img')].map(img => ({
    src: img.getAttribute('src'), alt: img.getAttribute('alt'),
    loaded: img.complete && img.naturalWidth > 0,
    output: !!img.closest('.cell_output'),
  }));
  const views = [...document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')];
  out.views = views.length;
  out.viewsRendered = views.filter(s => {
    const area = s.parentElement.querySelector('.widget-subarea');
    return area && area.querySelector('.jupyter-widgets');
  }).length;
  out.widgetControls = document.querySelectorAll('.widget-subarea .jupyter-widgets').length;
  const h1 = document.querySelector('article h1');
  out.h1Numbered = !!(h1 && h1.querySelector('.section-number'));
  out.h1 = h1 ? h1.textContent.replace('#', '').trim() : null;
  const launch = document.querySelector('.dropdown-launch-buttons');
  out.launch = launch
    ? [...launch.querySelectorAll('a')].map(a => [a.textContent.trim(), a.href]) : [];
  const dl = document.querySelector('.dropdown-download-buttons');
  out.downloads = dl ? [...dl.querySelectorAll('a')].map(a => a.getAttribute('href')) : [];
  out.hrefs = [...document.querySelectorAll('a[href]')].map(a => a.getAttribute('href'));
  return out;
}

// check_site.py: axe-core's WCAG 2.1 A/AA audit; the serious and critical violations.
async ([tags, impacts, allowed]) => {
  const result = await window.axe.run(document, {
    runOnly: {type: 'tag', values: tags},
    resultTypes: ['violations'],
  });
  const out = [];
  for (const v of result.violations) {
    if (!impacts.includes(v.impact)) continue;
    for (const node of v.nodes) {
      const target = node.target.map(t => Array.isArray(t) ? t.join(' >> ') : t).join(' ');
      let el = null;
      try {
        el = typeof node.target[0] === 'string' ? document.querySelector(node.target[0]) : null;
      } catch (e) { el = null; }
      let allow = -1;
      allowed.forEach(([rule, selector], i) => {
        if (allow < 0 && rule === v.id && el && el.matches(selector)) allow = i;
      });
      out.push({rule: v.id, impact: v.impact, help: v.help, target,
                summary: (node.failureSummary || '').split('\n').slice(0, 2).join(' '),
                html: (node.html || '').slice(0, 160), allow});
    }
  }
  return {violations: out, rules: result.violations.length, version: window.axe.version};
}

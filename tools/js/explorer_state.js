// check_explorers.py: one live explorer's controls, numbers and focus (the i-th .kh-explorer).
(i) => {
  const root = document.querySelectorAll('.kh-explorer')[i];
  if (!root) return null;
  const live = root.querySelector('.kh-explorer-live');
  const controls = {};
  const focusables = [];
  for (const el of root.querySelectorAll('[data-control]')) {
    const name = el.dataset.control;
    if (el.tagName === 'FIELDSET') {
      const checked = el.querySelector('input:checked');
      controls[name] = checked ? checked.value : null;
      for (const r of el.querySelectorAll('input')) if (!r.disabled && r.checked) focusables.push(name);
    } else {
      controls[name] = el.value;
      if (!el.disabled) focusables.push(name);
    }
  }
  const values = {};
  for (const el of root.querySelectorAll('[data-key]')) {
    values[el.dataset.key] = {text: el.textContent.trim(), value: el.dataset.value ?? null};
  }
  const active = document.activeElement && root.contains(document.activeElement)
    ? document.activeElement.closest('[data-control]').dataset.control : null;
  const labelled = [...root.querySelectorAll('input, select')].filter(el => {
    const named = el.labels && el.labels.length || el.getAttribute('aria-label') ||
                  el.closest('fieldset')?.querySelector('legend');
    return !named;
  }).length;
  const region = root.querySelector('[aria-live]');
  return {
    mounted: !!live, controls, values, focusables, active, unlabelled: labelled,
    announced: region ? region.textContent : null,
    message: (root.querySelector('.kh-message') || {}).textContent || '',
    fallbackHidden: [...document.querySelectorAll('figure.kh-explorer-fallback')]
      .every(f => getComputedStyle(f).display === 'none'),
  };
}

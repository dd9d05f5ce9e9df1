// check_site.py: true once n stored widget views are rendered by the HTML manager.
(n) => [...document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')].filter(s => {
  const area = s.parentElement.querySelector('.widget-subarea');
  return area && area.querySelector('.jupyter-widgets');
}).length >= n

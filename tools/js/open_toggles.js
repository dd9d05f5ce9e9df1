// check_site.py and pdf.py: open every collapsed part of the article (solutions, <details>).
() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  document.querySelectorAll('.admonition.toggle.toggle-hidden button.toggle-button')
    .forEach(b => b.click());
  return true;
}

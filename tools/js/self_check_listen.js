// check_self_checks.py: listen to a self-check's feedback line as a screen reader would. It
// must be a polite status live region, there before the reader answers; every change of its
// text is recorded (root.__heard), and check_self_checks.py reads the last one.
(root) => {
  const region = root.querySelector('.sc-feedback');
  if (!region) return 'no .sc-feedback live region';
  const role = region.getAttribute('role');
  const live = region.getAttribute('aria-live');
  if (role !== 'status' || live !== 'polite') {
    return `the feedback is not a polite status live region (role=${role}, aria-live=${live})`;
  }
  root.__heard = [];
  new MutationObserver(() => root.__heard.push(region.textContent.replace(/\s+/g, ' ').trim()))
    .observe(region, {childList: true, subtree: true, characterData: true});
  return '';
}

// check_site.py: true once MathJax has started and can typeset.
() => window.MathJax && window.MathJax.startup && window.MathJax.startup.promise
      && window.MathJax.typesetPromise

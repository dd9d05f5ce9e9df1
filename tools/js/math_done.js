// pdf.py: how many formulas MathJax has not typeset yet, once it has started.
() => window.MathJax && window.MathJax.startup && window.MathJax.startup.promise &&
      window.MathJax.startup.promise.then(() =>
        [...document.querySelectorAll('.math')].filter(
          el => !el.querySelector('mjx-container')).length)

// Every page: small fixes that need a script (added by _config.yml, html_js_files).
//
// A figure wider than a phone's column keeps the width at which its text stays legible and
// scrolls sideways in its own box (custom.css, tools/explorers_build.py); the cue under it
// ("scroll it sideways, or tap it") shows only while part of the figure is out of sight.
(function () {
  "use strict";
  const root = document.documentElement;
  root.classList.add("kh-js");
  function markScrolling() {
    for (const link of document.querySelectorAll("a.kh-figure-link.kh-wide")) {
      link.classList.toggle("kh-scrolls", link.scrollWidth > link.clientWidth + 1);
    }
  }
  function start() {
    markScrolling();
    window.addEventListener("resize", markScrolling);
    for (const img of document.querySelectorAll("a.kh-figure-link.kh-wide img")) {
      if (!img.complete) img.addEventListener("load", markScrolling);
    }
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();

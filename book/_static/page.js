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

// The search page opened from disk (file://): the browser refuses the fetches with which
// Sphinx's search cuts an excerpt from each found page ("Failed to fetch", no excerpts). Those
// fetches are answered from _static/search_text.js (tools/offline_search.py: every page's main
// text), loaded on the first one. Served over HTTP, nothing changes.
(function () {
  "use strict";
  if (location.protocol !== "file:" || !/\/search\.html$/.test(location.pathname)) return;
  const root = new URL(document.documentElement.dataset.content_root || "./", location.href);
  let texts = null;
  const load = () =>
    texts ||
    (texts = new Promise((resolve) => {
      const script = document.createElement("script");
      script.src = new URL("_static/search_text.js", root).href;
      script.onload = () => resolve(window.KH_SEARCH_TEXT || {});
      script.onerror = () => resolve({});
      document.head.append(script);
    }));
  const original = window.fetch.bind(window);
  window.fetch = (input, init) => {
    const url = new URL(typeof input === "string" ? input : input.url, location.href);
    url.hash = "";
    url.search = "";
    if (url.href.startsWith(root.href) && url.href.endsWith(".html")) {
      const doc = decodeURIComponent(url.href.slice(root.href.length, -".html".length));
      return load().then((all) =>
        doc in all
          ? new Response(all[doc], { headers: { "Content-Type": "text/html" } })
          : original(input, init),
      );
    }
    return original(input, init);
  };
})();

// Printing from the browser (Ctrl+P): the folded "Going deeper" parts print open, as in
// make pdf (tools/going_deeper.py).
window.addEventListener("beforeprint", () => {
  document.querySelectorAll("details.going-deeper").forEach((d) => {
    d.open = true;
  });
});

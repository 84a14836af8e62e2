// The lean pages' only script (the finder page and the anonymous home page, decision 020):
// the pages themselves are plain HTML with no React, and everything on them works without
// this. Inlined by the root layout (CSP nonce, or its
// hash on the cached page); keep it small (≤ 3 KB gzip) and free of imports.
(function () {
  var d = document;
  // The spec's short address-bar value, 400 ms after load; /{id} is a real route.
  var m = /^\/product\/([^/]+)$/.exec(location.pathname);
  if (m) {
    setTimeout(function () {
      // Only while this page is still the one in the address bar.
      if (location.pathname === "/product/" + m[1]) history.replaceState(history.state, "", "/" + m[1]);
    }, 400);
  }
  // The phone navigation's toggler.
  var toggler = d.querySelector(".navbar-toggler");
  var nav = d.getElementById("main-nav");
  if (toggler && nav) {
    toggler.addEventListener("click", function () {
      var open = toggler.getAttribute("aria-expanded") !== "true";
      toggler.setAttribute("aria-expanded", String(open));
      toggler.classList.toggle("collapsed", !open);
      nav.classList.toggle("show", open);
    });
  }
  // "Share my location": the checkbox replaces the no-script note; the position goes
  // with the message as two hidden fields (checked again on the server).
  var template = d.getElementById("relay-location-template");
  var note = d.getElementById("relay-location-noscript");
  if (template && note && navigator.geolocation) {
    note.replaceWith(template.content.cloneNode(true));
    var box = d.getElementById("relay-location");
    var help = d.getElementById("relay-location-help");
    var form = box.form;
    var say = function (state) {
      help.textContent = help.getAttribute("data-" + state);
    };
    var clear = function () {
      form.querySelectorAll("input[name=latitude],input[name=longitude]").forEach(function (i) {
        i.remove();
      });
    };
    box.addEventListener("change", function () {
      clear();
      if (!box.checked) return say("off");
      say("locating");
      navigator.geolocation.getCurrentPosition(
        function (pos) {
          if (!box.checked) return;
          clear();
          // Six decimals are about 10 cm: more says nothing more.
          [
            ["latitude", pos.coords.latitude],
            ["longitude", pos.coords.longitude],
          ].forEach(function (f) {
            var input = d.createElement("input");
            input.type = "hidden";
            input.name = f[0];
            input.value = String(Math.round(f[1] * 1e6) / 1e6);
            form.appendChild(input);
          });
          say("located");
        },
        function () {
          say("failed");
        },
        { enableHighAccuracy: true, timeout: 15000, maximumAge: 60000 },
      );
    });
  }
  // The consent dialog keeps keyboard focus inside it, as ConsentOverlay does in the full
  // app (the page behind is inert already).
  var dialog = d.querySelector(".consent-dialog");
  if (dialog) {
    dialog.addEventListener("keydown", function (e) {
      if (e.key !== "Tab") return;
      var f = dialog.querySelectorAll("a[href],button:not([disabled])");
      var end = e.shiftKey ? f[0] : f[f.length - 1];
      if (end && d.activeElement === end) {
        e.preventDefault();
        (e.shiftKey ? f[f.length - 1] : f[0]).focus();
      }
    });
  }
  // The spec's language switch "scrolls smoothly to the top": first the scroll, then the
  // link (which sets the language and comes back to this page).
  d.querySelectorAll("a[hreflang]").forEach(function (a) {
    a.addEventListener("click", function (e) {
      if (e.button || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey || !scrollY) return;
      e.preventDefault();
      scrollTo({ top: 0, behavior: "smooth" });
      setTimeout(function () {
        location.href = a.href;
      }, 400);
    });
  });
  // A refused form: its alert takes the focus, as FormAlert does in the full app.
  var alert = d.querySelector("form .alert[role=alert], main .alert[role=alert][tabindex]");
  if (alert && !d.querySelector(".consent-dialog")) {
    alert.focus({ preventScroll: true });
    alert.scrollIntoView({ block: "center" });
  }
  // Lets end-to-end tests wait until the script has run.
  d.documentElement.setAttribute("data-page-script", "ready");
})();

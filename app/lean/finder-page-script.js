// The finder page's only script (issue #18): the page itself is plain HTML with no React,
// and everything on it works without this. Inlined by the root layout (CSP nonce, or its
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
  // A refused message: the form's alert takes the focus, as FormAlert does in the full app.
  var alert = d.querySelector("form .alert[role=alert]");
  if (alert && !d.querySelector(".consent-dialog")) {
    alert.focus({ preventScroll: true });
    alert.scrollIntoView({ block: "center" });
  }
  // Lets end-to-end tests wait until the script has run.
  d.documentElement.setAttribute("data-page-script", "ready");
})();

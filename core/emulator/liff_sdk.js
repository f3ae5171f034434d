/*
 * The LINE emulator's stand-in for LINE's LIFF SDK (served at /liff/sdk.js), for tests and the demo.
 *
 * Who is "logged in" comes from window.__LIFF_STAND_IN__ = {idToken, language}, set before this script
 * loads (tests inject it), else from localStorage["shiftcast.liff.stand-in"] (JSON of the same), else
 * nobody: isLoggedIn() is false and getIDToken() null, as in a browser outside LINE. The ID token is one
 * the emulator issued (POST /_emulator/liff/id-token), so LINE Login's verify call on the same emulator
 * accepts it.
 *
 * init() restores the "liff.state" query as LINE's SDK does: LINE opens the endpoint URL with the path
 * and query of the LIFF URL packed into ?liff.state=..., and the SDK puts them back into the address
 * (history.replaceState) before init() resolves, so the page reads its view from location.search.
 */
(function () {
  "use strict";

  var STORAGE_KEY = "shiftcast.liff.stand-in";

  function standIn() {
    if (window.__LIFF_STAND_IN__ && typeof window.__LIFF_STAND_IN__ === "object") {
      return window.__LIFF_STAND_IN__;
    }
    try {
      var stored = window.localStorage.getItem(STORAGE_KEY);
      var parsed = stored ? JSON.parse(stored) : null;
      return parsed && typeof parsed === "object" ? parsed : {};
    } catch (e) {
      return {}; // storage blocked or not JSON: nobody is logged in
    }
  }

  function token() {
    var value = standIn().idToken;
    return typeof value === "string" && value ? value : null;
  }

  function decoded() {
    var value = token();
    if (!value) return null;
    try {
      var part = value.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
      while (part.length % 4) part += "=";
      var bytes = atob(part);
      var text = decodeURIComponent(Array.prototype.map.call(bytes, function (c) {
        return "%" + ("00" + c.charCodeAt(0).toString(16)).slice(-2);
      }).join(""));
      return JSON.parse(text);
    } catch (e) {
      return null;
    }
  }

  function restoreState() {
    var params = new URLSearchParams(window.location.search);
    var state = params.get("liff.state");
    if (state === null) return;
    var path = window.location.pathname;
    var target;
    if (state.charAt(0) === "/") {
      target = path.replace(/\/+$/, "") + state; // an extra path below the endpoint URL
    } else if (state.charAt(0) === "?") {
      target = path + state;
    } else if (state) {
      target = path + "?" + state;
    } else {
      target = path;
    }
    window.history.replaceState(window.history.state, "", target + window.location.hash);
  }

  var initialized = null;
  var resolveReady;
  var liff = {
    id: null,
    ready: new Promise(function (resolve) { resolveReady = resolve; }),
    init: function (config) {
      if (!initialized) {
        liff.id = config && config.liffId ? String(config.liffId) : null;
        initialized = new Promise(function (resolve) {
          restoreState();
          resolve();
          resolveReady();
        });
      }
      return initialized;
    },
    isLoggedIn: function () { return token() !== null; },
    // Logging in is LINE's part; the stand-in has nobody to log in, so it leaves the page where it is.
    login: function () {},
    logout: function () {},
    getIDToken: function () { return token(); },
    getDecodedIDToken: function () { return decoded(); },
    getLanguage: function () {
      var language = standIn().language;
      return typeof language === "string" && language ? language : (navigator.language || "ja");
    },
    isInClient: function () { return token() !== null; },
    getOS: function () { return "web"; },
    closeWindow: function () { window.close(); },
    getContext: function () {
      var claims = decoded();
      var context = { type: "utou", viewType: "full" };
      if (claims && typeof claims.sub === "string") context.userId = claims.sub;
      return context;
    }
  };
  window.liff = liff;
})();

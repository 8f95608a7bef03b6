// The catalog's link builder page (link-builder.html): a form for operations staff that builds
// exactly what `bridgectl link build` builds. It only wires the form: the link is made by
// buildLink (js/src/link-builder.js) with the rules of js/src/link-rules.js, over LINK_TABLE (the
// routes and campaign rules of the contracts). `bridgectl docs` puts those three in front of this
// file inside one function in the catalog's link-builder.js, so this is a plain script, not a module.
/* global LINK_TABLE, buildLink, parameterRuleWords */

(function wireLinkBuilder() {
  const form = document.getElementById("link-builder");
  if (!form) return;
  const routeSelect = form.querySelector("select[name=route]");
  const routeFields = document.getElementById("route-fields");
  const output = document.getElementById("link-output");
  const warningsList = document.getElementById("link-warnings");
  const errorBox = document.getElementById("link-error");

  function routeNamed(name) {
    return LINK_TABLE.routes.filter(function (route) { return route.name === name; })[0];
  }

  function field(name, labelText, hint) {
    const label = document.createElement("label");
    label.htmlFor = "field-" + name.replace(/[^A-Za-z0-9_-]/g, "-");
    label.textContent = labelText;
    const note = document.createElement("span");
    note.className = "hint";
    note.textContent = hint;
    label.appendChild(note);
    const input = document.createElement("input");
    input.type = "text";
    input.name = name;
    input.id = label.htmlFor;
    input.autocomplete = "off";
    input.spellcheck = false;
    routeFields.appendChild(label);
    routeFields.appendChild(input);
  }

  // The inputs of the chosen route: its path parameters (needed) and query fields (optional).
  function showRouteFields() {
    const route = routeNamed(routeSelect.value);
    while (routeFields.lastChild && routeFields.lastChild.tagName !== "LEGEND") routeFields.removeChild(routeFields.lastChild);
    route.pattern.split("/").filter(function (segment) { return segment.charAt(0) === ":"; }).forEach(function (segment) {
      const name = segment.slice(1);
      const type = route.parameters[name] || "string";
      field("param:" + name, name, "needed: " + parameterRuleWords(type));
    });
    route.query.forEach(function (entry) {
      field("query:" + entry[0], entry[0], "optional: " + parameterRuleWords(entry[1]));
    });
  }

  // What the form says, as the options of `bridgectl link build` would: an empty box is an
  // option not given.
  function collect() {
    const parameters = {};
    const query = {};
    const campaign = {};
    Array.prototype.forEach.call(form.querySelectorAll("input[type=text]"), function (input) {
      if (input.value === "") return;
      const colon = input.name.indexOf(":");
      const kind = input.name.slice(0, colon);
      const name = input.name.slice(colon + 1);
      if (kind === "param") parameters[name] = input.value;
      else if (kind === "query") query[name] = [input.value];
      else if (kind === "campaign") campaign[name] = input.value;
    });
    const scheme = form.querySelector("select[name=scheme]").value;
    const strict = form.querySelector("input[name=strict]").checked;
    const channel = form.querySelector("select[name=channel]").value;
    return { parameters: parameters, query: query, campaign: campaign, scheme: scheme, strict: strict, channel: channel };
  }

  // The channel the link arrives by, as `link build` works it out: the picked one (--source),
  // else the first declared channel whose utm_source or utm_medium matches (any case), else
  // appInternal for the app's scheme and externalURL for https.
  function channelOf(given) {
    if (given.channel !== "") return given.channel;
    const source = given.campaign.utm_source === undefined ? null : given.campaign.utm_source.toLowerCase();
    const medium = given.campaign.utm_medium === undefined ? null : given.campaign.utm_medium.toLowerCase();
    const declared = LINK_TABLE.channels.filter(function (channel) {
      return channel.utmSources.indexOf(source) >= 0 || channel.utmMedia.indexOf(medium) >= 0;
    })[0];
    if (declared) return declared.name;
    return given.scheme === "custom" ? "appInternal" : "externalURL";
  }

  // The pre-send checks of `link build`, with its words: a channel the route is not enabled from,
  // a link too long to arrive whole.
  function preSendWarnings(route, channel, url) {
    const warnings = [];
    if (route.enabledChannels.indexOf(channel) < 0) {
      warnings.push({ field: "channel", message: "refused from channel " + channel + ": route " + route.name + " is enabled from " + route.enabledFrom });
    }
    if (url.length > LINK_TABLE.urlCharacterLimit) {
      warnings.push({ field: "url", message: url.length + " characters once encoded; messengers and browsers may cut a link over " + LINK_TABLE.urlCharacterLimit + " characters" });
    }
    return warnings;
  }

  function listWarnings(warnings) {
    warnings.forEach(function (warning) {
      const item = document.createElement("li");
      item.textContent = warning.field + ": " + warning.message;
      warningsList.appendChild(item);
    });
  }

  function update() {
    const given = collect();
    while (warningsList.firstChild) warningsList.removeChild(warningsList.firstChild);
    errorBox.textContent = "";
    try {
      const built = buildLink(LINK_TABLE, routeSelect.value, given.parameters, given.query, given.campaign,
        { scheme: given.scheme, strict: given.strict });
      listWarnings(built.warnings);
      const checks = preSendWarnings(routeNamed(routeSelect.value), channelOf(given), built.url);
      if (given.strict && checks.length > 0) {
        output.textContent = "";
        errorBox.textContent = checks[0].field + ": " + checks[0].message;
        return;
      }
      output.textContent = built.url;
      listWarnings(checks);
    } catch (error) {
      output.textContent = "";
      errorBox.textContent = error && error.message ? error.message : String(error);
    }
  }

  routeSelect.addEventListener("change", function () {
    showRouteFields();
    update();
  });
  // A declared channel fills in the utm values it is recognised by (its first of each).
  form.querySelector("select[name=channel]").addEventListener("change", function (event) {
    const channel = LINK_TABLE.channels.filter(function (entry) { return entry.name === event.target.value; })[0];
    if (!channel) return;
    if (channel.utmSources.length > 0) form.querySelector("input[name='campaign:utm_source']").value = channel.utmSources[0];
    if (channel.utmMedia.length > 0) form.querySelector("input[name='campaign:utm_medium']").value = channel.utmMedia[0];
  });
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  form.addEventListener("submit", function (event) { event.preventDefault(); });

  const copy = document.getElementById("copy-link");
  if (copy) {
    copy.addEventListener("click", function () {
      const range = document.createRange();
      range.selectNodeContents(output);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      if (navigator.clipboard && output.textContent !== "") {
        navigator.clipboard.writeText(output.textContent).catch(function () { /* selected; copy by hand */ });
      }
    });
  }

  // link-builder.html#route=applyForm opens with that destination chosen (the action pages link so).
  const wanted = /(?:^#|&)route=([A-Za-z0-9_]+)/.exec(window.location.hash);
  if (wanted && routeNamed(wanted[1])) routeSelect.value = wanted[1];
  showRouteFields();
  update();
})();

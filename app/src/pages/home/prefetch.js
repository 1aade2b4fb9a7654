// The inbox's lists fetched while the page's WebAssembly is still on its way: each time the
// stream opened by the page's first script (`server/early_socket.rs`) says the questions or
// the messages changed, the lists are asked for again, so the island swaps in what was asked
// during the load as soon as it hydrates, not a round trip later. The island takes the last
// answer from `window[PREFETCHED].lists` (a promise of the answer's text, or null) and sets
// `taken`, after which it asks for itself.
(function (kept, path, lang) {
  if (!kept) return;
  var inbox = (window[PREFETCHED] = { lists: null, taken: false });
  function ask() {
    inbox.lists = fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'lang=' + encodeURIComponent(lang),
    })
      .then(function (response) { return response.ok ? response.text() : null; })
      .catch(function () { return null; });
  }
  function heard(text) {
    if (inbox.taken) return;
    try {
      var name = JSON.parse(text).event;
      if (name == 'init' || /^(question|message):/.test(name)) ask();
    } catch (error) {}
  }
  kept.heard.forEach(heard);
  if (kept.socket) kept.socket.addEventListener('message', function (event) {
    if (typeof event.data == 'string') heard(event.data);
  });
})(window[EARLY_SOCKET], LISTS_PATH, PAGE_LANG);

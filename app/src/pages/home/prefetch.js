// The inbox's lists fetched while the page's WebAssembly is still on its way: each time the
// stream opened by the page's first script (`server/early_socket.rs`) says the questions or
// the messages changed, the lists are asked for again and, when they differ from what the page
// shows (their fingerprint, `seen`), what waits is written at once, so a question asked during
// the load shows (its link works) before the page has hydrated. The island takes the last
// answer from `window[PREFETCHED].lists` (a promise of the answer's text, or null) and sets
// `taken`, after which it asks and draws for itself, the history too.
(function (kept, path, lang, listId, shown) {
  if (!kept) return;
  var inbox = (window[PREFETCHED] = { lists: null, taken: false });
  // True when the person has begun something in a Tell box of `list`, which a swap would
  // lose; the island, once hydrated, redraws keeping it.
  function busy(list) {
    if (list.contains(document.activeElement) || list.querySelector('details[open]')) return true;
    return Array.prototype.some.call(list.querySelectorAll('input[name=text]'), function (field) {
      return field.value != '';
    });
  }
  function draw(text) {
    var list = document.getElementById(listId);
    if (!list || busy(list)) return;
    try {
      var lists = JSON.parse(text);
      // The same lists as the page's: writing them again would have a screen reader announce
      // the list again, and lose a selection in it.
      if (typeof lists.waiting != 'string' || lists.seen === shown) return;
      list.innerHTML = lists.waiting;
      shown = lists.seen;
    } catch (error) {}
  }
  function ask() {
    var asked = fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'lang=' + encodeURIComponent(lang),
    })
      .then(function (response) { return response.ok ? response.text() : null; })
      .catch(function () { return null; });
    inbox.lists = asked;
    asked.then(function (text) {
      if (text && !inbox.taken && inbox.lists === asked) draw(text);
    });
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
})(window[EARLY_SOCKET], LISTS_PATH, PAGE_LANG, WAITING_LIST_ID, PAGE_SEEN);

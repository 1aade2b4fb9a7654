// Hark's islands loader, after Leptos 0.8.23's `island_script.js`, changed in two ways: it
// loads at once rather than when the browser is idle (a busy phone may not be idle for
// seconds), and it tells the page when every island, the lazily loaded ones too, has hydrated
// (`islandsHydrated`): the event stream is read only then, or an island would hydrate against
// live data the server never rendered.
((pkg, name) => {
  const owners = [];
  async function walk(node, mod) {
    for (const child of node.children) {
      const tag = child.tagName.toLowerCase();
      if (tag === 'leptos-island') {
        const hydrate = mod[child.dataset.component];
        if (hydrate) {
          owners.at(-1)?.();
          await hydrate(child);
        } else {
          console.warn(`no code for the island ${child.dataset.component}`);
        }
        await walk(child, mod);
      } else if (tag === 'leptos-children') {
        owners.push(child.$$on_hydrate);
        await walk(child, mod);
        owners.pop();
      } else {
        await walk(child, mod);
      }
    }
  }
  import(`/${pkg}/${name}.js`).then(async (mod) => {
    await mod.default({ module_or_path: `/${pkg}/${name}.wasm` });
    mod.hydrate();
    await walk(document.body, mod);
    mod.islandsHydrated();
  });
})

(() => {
  const names = document.currentScript.dataset;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const href of names.preload.split(' ').filter(Boolean)) {
      const link = document.createElement('link');
      link.rel = 'modulepreload';
      link.href = href;
      document.head.append(link);
    }
    const script = document.createElement('script');
    script.type = 'module';
    script.src = names.entry;
    document.head.append(script);
  };
  if (origin === 'null') start();
  else addEventListener('load', () => requestAnimationFrame(() => setTimeout(start)), { once: true });
  for (const intent of ['pointerdown', 'keydown', 'touchstart']) {
    addEventListener(intent, start, { once: true, capture: true, passive: true });
  }
})();

// Runs before the page is drawn (a blocking script in <head>, see vite.config.ts): applies the theme the page's
// switch chose (light or dark), so that a dark page never flashes light first. Without a choice the stylesheet
// follows the system (prefers-color-scheme). The key and values are the switch's (web/src/components.tsx).
try {
  var theme = localStorage.getItem('skinservice.theme');
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
} catch (error) {
  // Storage refused: the system's theme applies.
}

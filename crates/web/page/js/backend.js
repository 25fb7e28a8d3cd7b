// Which back end answers this page: the server (`xiangqi serve`) or, on the static site
// (`cargo xtask site`), the page's own worker. The site's pages say so on their <html>.

/** Whether this page is the static site's. */
export const onSite = document.documentElement.dataset.backend === 'worker';

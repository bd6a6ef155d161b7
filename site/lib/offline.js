// offline.js: how the site's own pages offer offline play. registerOffline() registers
// the service worker (sw-register.js) with its update notice in the page's language
// (the catalogue must be loaded). Pages call it once they are usable: the worker's first
// install downloads every file of the build, which would otherwise compete with the
// page's own start for the network and the CPU.
import { registerServiceWorker } from "./sw-register.js";
import { t } from "./i18n.js";

/** Register sw.js for the whole site; resolves to the registration (null when unsupported). */
export function registerOffline() {
  return registerServiceWorker({
    labels: { message: t("update.ready"), reload: t("update.reload"), dismiss: t("update.dismiss") },
  });
}

// Lighthouse's navigation runner imports puppeteer-core to launch or connect to
// Chrome when it is given no page; lighthouse_audit always gives it one.
const unavailable = () => {
  throw new Error('puppeteer-core is not installed: cdp-mcp runs Lighthouse on its own page adapter.');
};
export default {connect: unavailable, launch: unavailable};

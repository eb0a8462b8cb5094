// Lighthouse imports @sentry/node only when error reporting is enabled, which cdp-mcp never does.
export {};

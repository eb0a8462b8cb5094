// Lighthouse lists web-features but reads its own copy of the data (core/lib/baseline/*.json).
export const browsers = {};
export const features = {};
export const groups = {};
export const snapshots = {};

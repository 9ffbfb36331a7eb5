// The types of eslint.layers.js, for the tests that read its lists (test/lint/).
export declare const loadedAtStart: string[];
export declare const layerRules: unknown[];

// API payload schemas of the prompt service live here.
export {};

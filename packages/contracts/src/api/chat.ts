// API payload schemas of the chat service live here.
export {};

// The recordings list's shared parts: the tags and client pickers, and the filters the library,
// the search and the task pages keep in the address, and uploading one recording with its progress
// (the client profile).
export { type ClientOption, libraryApi, mayReadClients, useClientOptionsQuery, useTagsQuery } from './library-api';
export { filtersFromParams, type LibraryFilters, paramsWithFilters } from './library-filters';
export { LibraryFiltersForm } from './library-filters-form';
export { UploadButton, UploadProgress, useFileUpload } from './upload-controls';

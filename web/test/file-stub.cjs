// Stands in for imported CSS and image files in jest (they mean nothing outside a bundler).
module.exports = 'test-file-stub';

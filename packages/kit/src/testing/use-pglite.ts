process.env.EARSHOT_TEST_DB = 'pglite';

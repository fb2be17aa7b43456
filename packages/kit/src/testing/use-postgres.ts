process.env.EARSHOT_TEST_DB = 'postgres';

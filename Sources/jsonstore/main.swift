import JSONStoreCommand

// The jsonstore command: everything it does lives in JSONStoreCommand.
CommandLineTool.main()

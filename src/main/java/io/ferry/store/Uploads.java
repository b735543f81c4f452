package io.ferry.store;

/** What the executors write through and check before each completion: writing and the staged bytes. */
public interface Uploads extends Writing, StagedBytes {}

package io.ferry.copy;

/** Makes an object whose parts all arrived visible at its final name, or removes every trace of one that failed. */
public interface ObjectCommitter {
  void commit(PartTally object) throws Exception;

  void abort(PartTally object) throws Exception;

  /** After a batch of commits (one Spark task's): whatever they deferred, such as the directories' fsyncs. */
  default void finish() throws Exception {}
}

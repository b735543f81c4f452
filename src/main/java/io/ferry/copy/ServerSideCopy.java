package io.ferry.copy;

import io.ferry.plan.RangeTask;

/** Copies inside the service: CopyObject for a whole object, UploadPartCopy with a source range for a part. */
public final class ServerSideCopy implements RangeTransfer {
  private final BucketSink sink;
  private final String sourceBucket;

  public ServerSideCopy(BucketSink sink, String sourceBucket) {
    this.sink = sink;
    this.sourceBucket = sourceBucket;
  }

  @Override
  public String method() {
    return "server-side-copy";
  }

  @Override
  public boolean resumable() {
    return false;
  }

  @Override
  public boolean serverSide() {
    return true;
  }

  @Override
  public String destination(RangeTask task) {
    return sink.destination(task.object());
  }

  @Override
  public String attempt(RangeTask task, Progress progress) throws java.io.IOException {
    progress.requestStarted();
    if (task.wholeObject()) return sink.copyObject(task.object(), sourceBucket);
    return sink.copyPart(task.object(), sourceBucket, task.uploadId(), task.partNumber(), task.range());
  }
}

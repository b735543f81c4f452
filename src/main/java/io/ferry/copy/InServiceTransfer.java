package io.ferry.copy;

import io.ferry.plan.RangeTask;
import io.ferry.store.Writing;
import io.ferry.store.InServiceCopy;
import io.ferry.store.Upload;
import java.io.IOException;

/** Copies inside the service: CopyObject for a whole object, UploadPartCopy with a source range for a part. */
public final class InServiceTransfer implements RangeTransfer {
  private final InServiceCopy copies;
  private final Writing destination;

  public InServiceTransfer(InServiceCopy copies, Writing destination) {
    this.copies = copies;
    this.destination = destination;
  }

  @Override
  public String method() {
    return "server-side-copy";
  }

  @Override
  public boolean resumable(RangeTask task) {
    return false;
  }

  @Override
  public boolean serverSide() {
    return true;
  }

  @Override
  public String location(RangeTask task) {
    return destination.location(task.object());
  }

  @Override
  public String attempt(RangeTask task, Upload upload, Progress progress) throws IOException {
    progress.requestStarted();
    return copies.copy(upload, task.partNumber(), task.range());
  }
}

package io.ferry.store.s3;

import io.ferry.config.S3EndpointConfig;
import io.ferry.store.MessageQueue;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.ChangeMessageVisibilityBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.DeleteMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.MessageSystemAttributeName;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * An SQS queue (AWS SQS, or a server of its API), reached with the source's endpoint settings: its region and
 * credentials, and the queue URL's own scheme, host and port.
 */
public final class SqsQueue implements MessageQueue {
  private static final int BATCH = 10;
  private final SqsClient sqs;
  private final String url;

  private SqsQueue(SqsClient sqs, String url) {
    this.sqs = sqs;
    this.url = url;
  }

  /** The queue at {@code url}, with {@code source}'s region and credentials. */
  public static SqsQueue of(String url, S3EndpointConfig source) {
    URI u = URI.create(url);
    SqsClient sqs = SqsClient.builder()
        .region(Region.of(source.region()))
        .credentialsProvider(S3Clients.credentials(source))
        .endpointOverride(URI.create(u.getScheme() + "://" + u.getAuthority()))
        .httpClientBuilder(ApacheHttpClient.builder().connectionTimeout(Duration.ofSeconds(10)).socketTimeout(Duration.ofSeconds(60)))
        .build();
    return new SqsQueue(sqs, url);
  }

  @Override
  public List<MessageQueue.Message> receive(int max, Duration wait, Duration hold) throws IOException {
    List<software.amazon.awssdk.services.sqs.model.Message> got = call(() -> sqs.receiveMessage(r -> r.queueUrl(url)
        .maxNumberOfMessages(Math.min(BATCH, max))
        .waitTimeSeconds((int) Math.min(20, wait.toSeconds())).visibilityTimeout((int) Math.min(43_200, hold.toSeconds()))
        .messageSystemAttributeNames(MessageSystemAttributeName.SENT_TIMESTAMP, MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT))
        .messages());
    List<MessageQueue.Message> out = new ArrayList<>(got.size());
    for (software.amazon.awssdk.services.sqs.model.Message m : got) {
      out.add(new MessageQueue.Message(m.messageId(), m.receiptHandle(), m.body(),
          number(m.attributes().get(MessageSystemAttributeName.SENT_TIMESTAMP)),
          (int) number(m.attributes().get(MessageSystemAttributeName.APPROXIMATE_RECEIVE_COUNT))));
    }
    return out;
  }

  @Override
  public void delete(List<String> receipts) throws IOException {
    batches(receipts, (id, receipt) -> DeleteMessageBatchRequestEntry.builder().id(id).receiptHandle(receipt).build(),
        entries -> sqs.deleteMessageBatch(r -> r.queueUrl(url).entries(entries)).failed(), "delete");
  }

  @Override
  public void release(List<String> receipts) throws IOException {
    batches(receipts, (id, receipt) -> ChangeMessageVisibilityBatchRequestEntry.builder().id(id).receiptHandle(receipt)
            .visibilityTimeout(0).build(),
        entries -> sqs.changeMessageVisibilityBatch(r -> r.queueUrl(url).entries(entries)).failed(), "release");
  }

  @Override
  public Duration retention() throws IOException {
    String seconds = call(() -> sqs.getQueueAttributes(r -> r.queueUrl(url).attributeNames(QueueAttributeName.MESSAGE_RETENTION_PERIOD))
        .attributes().get(QueueAttributeName.MESSAGE_RETENTION_PERIOD));
    return Duration.ofSeconds(number(seconds));
  }

  @Override
  public void close() {
    sqs.close();
  }

  /** Ten receipts a request; a receipt the queue refuses fails the call with its reason. */
  private <E> void batches(List<String> receipts, BiFunction<String, String, E> entry,
      Function<List<E>, List<BatchResultErrorEntry>> send, String what) throws IOException {
    for (int from = 0; from < receipts.size(); from += BATCH) {
      List<E> entries = new ArrayList<>();
      for (int i = from; i < Math.min(receipts.size(), from + BATCH); i++) entries.add(entry.apply(Integer.toString(i), receipts.get(i)));
      List<BatchResultErrorEntry> failed = call(() -> send.apply(entries)).stream().filter(f -> !gone(f.code())).toList();
      if (!failed.isEmpty()) {
        BatchResultErrorEntry f = failed.get(0);
        throw new IOException("the queue refused to " + what + " " + failed.size() + " of " + entries.size() + " messages: " + f.code()
            + " " + f.message());
      }
    }
  }

  /** A receipt that no longer holds its message (deleted, or its hold ended): nothing left to delete or release. */
  private static boolean gone(String code) {
    return code != null && (code.contains("ReceiptHandleIsInvalid") || code.contains("MessageNotInflight"));
  }

  private static long number(String text) {
    try {
      return text == null ? 0 : Long.parseLong(text);
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private interface Call<T> {
    T get();
  }

  /** The SDK's failures (after its own retries) as IOExceptions, as every store call reports them. */
  private static <T> T call(Call<T> call) throws IOException {
    try {
      return call.get();
    } catch (SdkException e) {
      throw new IOException(e.getMessage(), e);
    }
  }
}

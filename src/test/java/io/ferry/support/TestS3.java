package io.ferry.support;

import io.ferry.config.S3EndpointConfig;
import java.net.URI;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/** A plain AWS SDK client of the tests, the demo and the benchmark: seeds buckets and reads them back, apart from Ferry's own. */
public final class TestS3 {
  private TestS3() {}

  public static S3Client client(S3EndpointConfig endpoint) {
    return S3Client.builder()
        .region(Region.of(endpoint.region()))
        .endpointOverride(URI.create(endpoint.endpoint()))
        .forcePathStyle(endpoint.pathStyle())
        .credentialsProvider(StaticCredentialsProvider.create(
            AwsBasicCredentials.create(endpoint.credentials().accessKeyId(), endpoint.credentials().secretAccessKey().reveal())))
        .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
        .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
        .build();
  }
}

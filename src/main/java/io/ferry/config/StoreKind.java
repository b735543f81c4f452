package io.ferry.config;

/** What a side of the migration is: a bucket or a directory. */
public enum StoreKind { S3, FILE }

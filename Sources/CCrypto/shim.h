// OpenSSL libcrypto (Debian libssl-dev) for encrypted files: AES-256-CTR, HMAC-SHA-256 and
// RAND_bytes for realmtui's own, AES-256-CBC and HMAC-SHA-224 for Realm Core's, behind a few
// inline helpers, so Swift never builds OSSL_PARAM arrays itself.
#ifndef REALMTUI_CCRYPTO_SHIM_H
#define REALMTUI_CCRYPTO_SHIM_H

#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/crypto.h>
#include <stddef.h>
#include <stdint.h>

/// One key's contexts: AES-256-CTR keyed with bytes 0-31, HMAC-SHA-256 keyed with bytes 32-63.
/// Not thread-safe: the owner serialises calls.
typedef struct rt_page_cipher {
    EVP_CIPHER_CTX *aes;
    EVP_MAC *mac;
    EVP_MAC_CTX *hmac;
} rt_page_cipher;

static inline void rt_page_cipher_free(rt_page_cipher *c) {
    if (!c) return;
    EVP_CIPHER_CTX_free(c->aes);
    EVP_MAC_CTX_free(c->hmac);
    EVP_MAC_free(c->mac);
    OPENSSL_free(c);
}

/// The contexts for a 64-byte key, or NULL when OpenSSL refuses.
static inline rt_page_cipher *rt_page_cipher_new(const unsigned char *key64) {
    rt_page_cipher *c = OPENSSL_zalloc(sizeof(rt_page_cipher));
    if (!c) return NULL;
    c->aes = EVP_CIPHER_CTX_new();
    c->mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
    c->hmac = c->mac ? EVP_MAC_CTX_new(c->mac) : NULL;
    if (!c->aes || !c->hmac) { rt_page_cipher_free(c); return NULL; }
    if (EVP_EncryptInit_ex(c->aes, EVP_aes_256_ctr(), NULL, key64, NULL) != 1) { rt_page_cipher_free(c); return NULL; }
    char digest[] = "SHA256";
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0);
    params[1] = OSSL_PARAM_construct_end();
    if (EVP_MAC_init(c->hmac, key64 + 32, 32, params) != 1) { rt_page_cipher_free(c); return NULL; }
    return c;
}

/// AES-256-CTR of `n` bytes from `in` to `out` with the 16-byte initial counter block `iv`
/// (encryption and decryption are the same operation). Returns 1 on success.
static inline int rt_page_cipher_ctr(rt_page_cipher *c, const unsigned char *iv, const unsigned char *in,
                                     unsigned char *out, int n) {
    int len = 0, fin = 0;
    if (EVP_EncryptInit_ex(c->aes, NULL, NULL, NULL, iv) != 1) return 0;
    if (EVP_EncryptUpdate(c->aes, out, &len, in, n) != 1) return 0;
    if (EVP_EncryptFinal_ex(c->aes, out + len, &fin) != 1) return 0;
    return len + fin == n;
}

/// HMAC-SHA-256 of `head` followed by `body` into `out` (32 bytes). Returns 1 on success.
static inline int rt_page_cipher_mac(rt_page_cipher *c, const unsigned char *head, size_t head_len,
                                     const unsigned char *body, size_t body_len, unsigned char *out) {
    size_t len = 0;
    if (EVP_MAC_init(c->hmac, NULL, 0, NULL) != 1) return 0;
    if (EVP_MAC_update(c->hmac, head, head_len) != 1) return 0;
    if (body_len > 0 && EVP_MAC_update(c->hmac, body, body_len) != 1) return 0;
    if (EVP_MAC_final(c->hmac, out, &len, 32) != 1) return 0;
    return len == 32;
}

/// HMAC-SHA-256 with an arbitrary key (the key check value). Returns 1 on success.
static inline int rt_hmac_sha256(const unsigned char *key, size_t key_len, const unsigned char *data, size_t data_len,
                                 unsigned char *out) {
    size_t len = 0;
    char digest[] = "SHA256";
    return EVP_Q_mac(NULL, "HMAC", NULL, digest, NULL, key, key_len, data, data_len, out, 32, &len) != NULL && len == 32;
}

/// HMAC-SHA-224 (Realm Core's page authentication), 28 bytes into `out`. Returns 1 on success.
static inline int rt_hmac_sha224(const unsigned char *key, size_t key_len, const unsigned char *data, size_t data_len,
                                 unsigned char *out) {
    size_t len = 0;
    char digest[] = "SHA224";
    return EVP_Q_mac(NULL, "HMAC", NULL, digest, NULL, key, key_len, data, data_len, out, 28, &len) != NULL && len == 28;
}

/// AES-256-CBC decryption without padding of `len` bytes (a multiple of 16): Realm Core's page
/// cipher. `key` is 32 bytes, `iv` 16. Returns 1 on success.
static inline int rt_aes256_cbc_decrypt(const unsigned char *key, const unsigned char *iv, const unsigned char *in,
                                        unsigned char *out, int len) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (ctx == NULL) return 0;
    int written = 0, final_len = 0;
    int ok = EVP_DecryptInit_ex(ctx, EVP_aes_256_cbc(), NULL, key, iv) == 1
        && EVP_CIPHER_CTX_set_padding(ctx, 0) == 1
        && EVP_DecryptUpdate(ctx, out, &written, in, len) == 1
        && EVP_DecryptFinal_ex(ctx, out + written, &final_len) == 1
        && written + final_len == len;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

/// AES-256-CBC encryption without padding of `len` bytes (a multiple of 16): Realm Core's page
/// cipher, for writing encrypted Realm files. `key` is 32 bytes, `iv` 16. Returns 1 on success.
static inline int rt_aes256_cbc_encrypt(const unsigned char *key, const unsigned char *iv, const unsigned char *in,
                                        unsigned char *out, int len) {
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (ctx == NULL) return 0;
    int written = 0, final_len = 0;
    int ok = EVP_EncryptInit_ex(ctx, EVP_aes_256_cbc(), NULL, key, iv) == 1
        && EVP_CIPHER_CTX_set_padding(ctx, 0) == 1
        && EVP_EncryptUpdate(ctx, out, &written, in, len) == 1
        && EVP_EncryptFinal_ex(ctx, out + written, &final_len) == 1
        && written + final_len == len;
    EVP_CIPHER_CTX_free(ctx);
    return ok;
}

/// `n` bytes from OpenSSL's CSPRNG. Returns 1 on success.
static inline int rt_random_bytes(unsigned char *out, int n) { return RAND_bytes(out, n); }

/// Constant-time comparison of `n` bytes: 0 when equal.
static inline int rt_memcmp_consttime(const void *a, const void *b, size_t n) { return CRYPTO_memcmp(a, b, n); }

#endif

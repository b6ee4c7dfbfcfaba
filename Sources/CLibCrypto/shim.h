// OpenSSL 3's libcrypto (Debian's libssl-dev): the history's digests, HMAC and ChaCha20-Poly1305, whose functions
// ClipHistory looks up at run time (LibCrypto.swift). HMAC() is deprecated in OpenSSL 3 but kept; its declaration is
// what is wanted here, without the warning.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/evp.h>
#include <openssl/hmac.h>

// Each looked-up function's type taken from its declaration, and its name from the same token, so a wrong signature
// or name in the Swift table does not compile.
#define CLIPBRIDGE_LOOKED_UP(function) \
    typedef __typeof__(function) *clipbridge_##function##_t; \
    static const char *const clipbridge_##function##_name = #function;
CLIPBRIDGE_LOOKED_UP(EVP_MD_CTX_new)
CLIPBRIDGE_LOOKED_UP(EVP_MD_CTX_free)
CLIPBRIDGE_LOOKED_UP(EVP_sha256)
CLIPBRIDGE_LOOKED_UP(EVP_DigestInit_ex)
CLIPBRIDGE_LOOKED_UP(EVP_DigestUpdate)
CLIPBRIDGE_LOOKED_UP(EVP_DigestFinal_ex)
CLIPBRIDGE_LOOKED_UP(HMAC)
CLIPBRIDGE_LOOKED_UP(EVP_CIPHER_CTX_new)
CLIPBRIDGE_LOOKED_UP(EVP_CIPHER_CTX_free)
CLIPBRIDGE_LOOKED_UP(EVP_CIPHER_fetch)
CLIPBRIDGE_LOOKED_UP(EVP_CipherInit_ex)
CLIPBRIDGE_LOOKED_UP(EVP_CipherUpdate)
CLIPBRIDGE_LOOKED_UP(EVP_CipherFinal_ex)
CLIPBRIDGE_LOOKED_UP(EVP_CIPHER_CTX_ctrl)

// The AEAD controls, as numbers Swift can import.
static const int clipbridge_EVP_CTRL_AEAD_GET_TAG = EVP_CTRL_AEAD_GET_TAG;
static const int clipbridge_EVP_CTRL_AEAD_SET_TAG = EVP_CTRL_AEAD_SET_TAG;

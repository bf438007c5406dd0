#ifndef NETD_H
#define NETD_H

#include <stdint.h>

/* nft.c */
void		nft_open(void);
uint32_t	nft_generation(void);

#endif

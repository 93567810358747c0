"""Terraform's IP network functions: ``cidrhost``, ``cidrnetmask``, ``cidrsubnet``,
``cidrsubnets``, with the address arithmetic of Terraform's ``go-cidr``."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Mapping
from typing import Any

from engine.inputs.loaders.hcl_conversions import FunctionError, as_int, as_string

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _network(prefix: Any) -> Network:
    try:
        return ipaddress.ip_network(as_string(prefix), strict=False)
    except ValueError as exc:
        raise FunctionError(f"invalid CIDR expression: {exc}") from None


def _cidrsubnet(prefix: Any, newbits: Any, netnum: Any) -> str:
    network = _network(prefix)
    bits, number = as_int(newbits), as_int(netnum)
    new_prefix = network.prefixlen + bits
    if bits < 0 or new_prefix > network.max_prefixlen or not 0 <= number < 2**bits:
        raise FunctionError("cidrsubnet out of range")
    size = 2 ** (network.max_prefixlen - new_prefix)
    address = network.network_address + number * size
    return f"{address}/{new_prefix}"


def _cidrhost(prefix: Any, hostnum: Any) -> str:
    network = _network(prefix)
    number = as_int(hostnum)
    if number < 0:
        number += network.num_addresses
    if not 0 <= number < network.num_addresses:
        raise FunctionError("cidrhost out of range")
    return str(network.network_address + number)


def _cidrnetmask(prefix: Any) -> str:
    network = _network(prefix)
    if network.version != 4:
        raise FunctionError("IPv6 addresses cannot have a netmask")
    return str(network.netmask)


def _cidrsubnets(prefix: Any, *newbits: Any) -> list[str]:
    """Consecutive subnets of the sizes asked for, each aligned to its own size."""
    network = _network(prefix)
    if not newbits:
        return []
    width = network.max_prefixlen
    base, end = int(network.network_address), int(network.broadcast_address)
    cursor = base  # the first address not yet allocated
    subnets: list[str] = []
    for bits in (as_int(b) for b in newbits):
        length = network.prefixlen + bits
        if bits < 1 or length > width:
            raise FunctionError(f"would extend prefix to {length} bits, which is out of range")
        size = 1 << (width - length)
        start = -(-cursor // size) * size  # the next boundary of this size
        if start + size - 1 > end:
            raise FunctionError(f"not enough remaining address space for a subnet of /{length}")
        subnets.append(f"{type(network.network_address)(start)}/{length}")
        cursor = start + size
    return subnets


NETWORK_FUNCTIONS: Mapping[str, Callable[..., Any]] = {
    "cidrhost": _cidrhost,
    "cidrnetmask": _cidrnetmask,
    "cidrsubnet": _cidrsubnet,
    "cidrsubnets": _cidrsubnets,
}
"""The IP network functions."""
